REM Host and Content-Length left out: curl sets them from the URL and the body.
curl.exe -X GET https://api.example.com/things ^
  -H ^"Accept-Encoding: gzip^" ^
  -H ^"Connection: keep-alive^" ^
  -H ^"Content-Type: application/json^" ^
  -H ^"X-Empty;^" ^
  --data-raw ^"{\^"q\^":\^"body on GET\^"}^"
