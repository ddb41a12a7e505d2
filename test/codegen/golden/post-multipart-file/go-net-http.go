// Content-Type left out: net/http sets it with the multipart boundary.
package main

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"os"
)

func main() {
	var payload bytes.Buffer
	form := multipart.NewWriter(&payload)
	{
		header := textproto.MIMEHeader{}
		header.Set("Content-Disposition", "form-data; name=\"title\"")
		part, err := form.CreatePart(header)
		if err != nil {
			panic(err)
		}
		io.WriteString(part, "Holiday")
	}
	{
		header := textproto.MIMEHeader{}
		header.Set("Content-Disposition", "form-data; name=\"meta\"")
		header.Set("Content-Type", "application/json")
		part, err := form.CreatePart(header)
		if err != nil {
			panic(err)
		}
		io.WriteString(part, "{\"a\":1}")
	}
	{
		header := textproto.MIMEHeader{}
		header.Set("Content-Disposition", "form-data; name=\"photo\"; filename=\"photo.png\"")
		header.Set("Content-Type", "image/png")
		part, err := form.CreatePart(header)
		if err != nil {
			panic(err)
		}
		content, err := os.ReadFile("/home/me/api/files/photo.png")
		if err != nil {
			panic(err)
		}
		part.Write(content)
	}
	form.Close()

	req, err := http.NewRequest("POST", "https://api.example.com/upload", &payload)
	if err != nil {
		panic(err)
	}
	req.Header.Set("Content-Type", form.FormDataContentType())

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
