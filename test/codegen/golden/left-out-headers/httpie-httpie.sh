# Host and Content-Length left out: HTTPie sets them from the URL and the body.
# Connection left out: it manages one connection, not the request, and Ferry does not send it either.
# Accept-Encoding left out: HTTPie sends its own and decompresses the answer.
http --ignore-stdin --raw '{"q":"body on GET"}' GET https://api.example.com/things \
  Content-Type:application/json \
  'X-Empty;'
