// Host and Content-Length left out: net/http sets them from the URL and the body.
// Connection left out: it manages one connection, not the request, and Ferry does not send it either.
// Accept-Encoding left out: net/http sends its own and decompresses the answer.
package main

import (
	"fmt"
	"io"
	"net/http"
	"strings"
)

func main() {
	req, err := http.NewRequest("GET", "https://api.example.com/things", strings.NewReader("{\"q\":\"body on GET\"}"))
	if err != nil {
		panic(err)
	}
	req.Header["Content-Type"] = []string{"application/json"}
	req.Header["X-Empty"] = []string{""}

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
