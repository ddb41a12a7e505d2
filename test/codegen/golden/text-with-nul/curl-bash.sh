printf %s YQBiAWMbWzBtf2Q= | base64 -d | curl https://api.example.com/raw \
  -H 'Content-Type: text/plain' \
  --data-binary @-
