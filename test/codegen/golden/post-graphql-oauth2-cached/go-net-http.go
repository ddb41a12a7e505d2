package main

import (
	"fmt"
	"io"
	"net/http"
	"strings"
)

func main() {
	req, err := http.NewRequest("POST", "https://api.example.com/graphql", strings.NewReader("{\"query\":\"query User($id: ID!) { user(id: $id) { name } }\",\"variables\":{\"id\":\"1\"},\"operationName\":\"User\"}"))
	if err != nil {
		panic(err)
	}
	req.Header["Authorization"] = []string{"Bearer cached-token-123"}
	req.Header["Content-Type"] = []string{"application/json"}

	res, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	defer res.Body.Close()
	answer, err := io.ReadAll(res.Body)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.StatusCode)
	fmt.Println(string(answer))
}
