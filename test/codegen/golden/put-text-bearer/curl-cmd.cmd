curl.exe -X PUT https://api.example.com/notes/1 ^
  -H ^"Authorization: Bearer eyJhbGciOi.J9^" ^
  -H ^"Content-Type: text/plain^" ^
  --data-raw ^"Hello, world.^

Second line.^"
