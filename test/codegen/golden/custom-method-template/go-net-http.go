package main

import (
	"fmt"
	"io"
	"net/http"
)

func main() {
	req, err := http.NewRequest("PROPFIND", "{{baseUrl}}/dav/{{folder}}?depth={{depth}}", nil)
	if err != nil {
		panic(err)
	}
	req.Header["Depth"] = []string{"1"}

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
