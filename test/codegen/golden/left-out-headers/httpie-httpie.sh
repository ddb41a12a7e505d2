# Host and Content-Length left out: HTTPie sets them from the URL and the body.
# Accept-Encoding left out: HTTPie sends its own and decompresses the answer.
http --ignore-stdin --raw '{"q":"body on GET"}' GET https://api.example.com/things \
  Connection:keep-alive \
  Content-Type:application/json \
  'X-Empty;'
