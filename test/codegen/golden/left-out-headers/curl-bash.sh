# Host and Content-Length left out: curl sets them from the URL and the body.
# Connection left out: it manages one connection, not the request, and Ferry does not send it either.
curl -X GET https://api.example.com/things \
  -H 'Accept-Encoding: gzip' \
  -H 'Content-Type: application/json' \
  -H 'X-Empty;' \
  --data-raw '{"q":"body on GET"}'
