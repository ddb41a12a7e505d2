package main

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
)

func main() {
	payload, err := base64.StdEncoding.DecodeString("AAEC/v8iXD8KQQ==")
	if err != nil {
		panic(err)
	}

	req, err := http.NewRequest("POST", "https://api.example.com/blobs", bytes.NewReader(payload))
	if err != nil {
		panic(err)
	}
	req.Header["Content-Type"] = []string{"application/octet-stream"}

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
