package main

import (
	"fmt"
	"io"
	"net/http"
	"strings"
)

func main() {
	req, err := http.NewRequest("POST", "https://api.example.com/login?api_key=k3y%2B1", strings.NewReader("user=ada&pass=p%40ss+word"))
	if err != nil {
		panic(err)
	}
	req.Header["Content-Type"] = []string{"application/x-www-form-urlencoded"}

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
