REM Content-Type left out: curl sets it with the multipart boundary.
curl.exe https://api.example.com/upload ^
  --form-string ^"title=Holiday^" ^
  -F ^"meta=\^"{\\\^"a\\\^":1}\^";type=application/json^" ^
  -F ^"photo=@\^"/home/me/api/files/photo.png\^";type=image/png^"
