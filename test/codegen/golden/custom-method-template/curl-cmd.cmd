curl.exe -X PROPFIND ^"{{baseUrl}}/dav/{{folder}}?depth={{depth}}^" ^
  -H ^"Depth: 1^" ^
  -H ^"Content-Length: 0^"
