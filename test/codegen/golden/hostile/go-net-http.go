package main

import (
	"fmt"
	"io"
	"net/http"
	"strings"
)

func main() {
	req, err := http.NewRequest("PATCH", "https://api.example.com/%C3%BCn%C3%AF%20c%C3%B4d%C3%A9/%22q%22?name=a%20b&quote='x'&dollar=$HOME&pct=100%25&caret=%5E&tick=%60&back=%5C&uni=%E6%97%A5%E6%9C%AC", strings.NewReader("line1\nsingle 'quoted' and \"double\" quotes, $HOME $(id) `id` ${x}, back\\slash \\n \\\", %PATH% 100% %%, ^caret & amp | pipe > gt < lt, !bang, #{ruby} {brace}, tab\t, unicode héllo 日本 🚀, typographic ‘quotes’\r\nend"))
	if err != nil {
		panic(err)
	}
	req.Header["X-Quote"] = []string{"it's \"quoted\""}
	req.Header["X-Dollar"] = []string{"$HOME $(id) `id` ${x} #{y}"}
	req.Header["X-Backslash"] = []string{"C:\\path\\n\\\"end\\"}
	req.Header["X-Percent"] = []string{"%PATH% 100% %%"}
	req.Header["X-Caret"] = []string{"a^b & c | d > e < f !g"}
	req.Header["X-Multi"] = []string{"one", "two"}
	req.Header["Cookie"] = []string{"a=1", "b=2"}
	req.Header["Content-Type"] = []string{"text/plain; charset=utf-8"}

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
