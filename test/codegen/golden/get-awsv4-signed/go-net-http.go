// AWS Signature Version 4: the signature below was made for one send and expires soon.
// This code cannot sign each request: sign it again before sending (Ferry does this on every send).
package main

import (
	"fmt"
	"io"
	"net/http"
)

func main() {
	req, err := http.NewRequest("GET", "https://api.example.com/bucket/key", nil)
	if err != nil {
		panic(err)
	}
	req.Header["X-Amz-Date"] = []string{"20260101T000000Z"}
	req.Header["Authorization"] = []string{"AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/s3/aws4_request, SignedHeaders=host;x-amz-date, Signature=abc"}

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
