# Host and Content-Length left out: Wget sets them from the URL and the body.
wget --quiet \
  --output-document=- \
  --method=GET \
  --header='Accept-Encoding: gzip' \
  --header='Connection: keep-alive' \
  --header='Content-Type: application/json' \
  --header='X-Empty: ' \
  --body-data='{"q":"body on GET"}' \
  https://api.example.com/things
