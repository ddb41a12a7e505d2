printf %s YQBiAWMbWzBtf2Q= | base64 -d | http POST https://api.example.com/raw \
  Content-Type:text/plain
