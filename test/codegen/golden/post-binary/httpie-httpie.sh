printf %s AAEC/v8iXD8KQQ== | base64 -d | http POST https://api.example.com/blobs \
  Content-Type:application/octet-stream
