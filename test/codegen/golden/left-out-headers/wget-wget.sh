# Host and Content-Length left out: Wget sets them from the URL and the body.
# Connection left out: it manages one connection, not the request, and Ferry does not send it either.
wget --quiet \
  --output-document=- \
  --method=GET \
  --header='Accept-Encoding: gzip' \
  --header='Content-Type: application/json' \
  --header='X-Empty: ' \
  --body-data='{"q":"body on GET"}' \
  https://api.example.com/things
