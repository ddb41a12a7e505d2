printf %s AAEC/v8iXD8KQQ== | base64 -d | curl https://api.example.com/blobs \
  -H 'Content-Type: application/octet-stream' \
  --data-binary @-
