package main

import (
	"fmt"
	"io"
	"net/http"
	"strings"
)

func main() {
	req, err := http.NewRequest("PUT", "https://api.example.com/notes/1", strings.NewReader("Hello, world.\nSecond line."))
	if err != nil {
		panic(err)
	}
	req.Header["Authorization"] = []string{"Bearer eyJhbGciOi.J9"}
	req.Header["Content-Type"] = []string{"text/plain"}

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
