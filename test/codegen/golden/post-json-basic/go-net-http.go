package main

import (
	"fmt"
	"io"
	"net/http"
	"strings"
)

func main() {
	req, err := http.NewRequest("POST", "https://api.example.com/users", strings.NewReader("{\n  \"name\": \"Ada\",\n  \"tags\": [\"a\", \"b\"]\n}"))
	if err != nil {
		panic(err)
	}
	req.Header["X-Workspace"] = []string{"ferry"}
	req.Header["Authorization"] = []string{"Basic dXNlcjpwQHNz"}
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
