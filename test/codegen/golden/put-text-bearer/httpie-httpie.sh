http --ignore-stdin --raw 'Hello, world.
Second line.' PUT https://api.example.com/notes/1 \
  'Authorization:Bearer eyJhbGciOi.J9' \
  Content-Type:text/plain
