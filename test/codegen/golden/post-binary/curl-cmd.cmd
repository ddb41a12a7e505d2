REM The body is binary: decode it from Base64 into a temporary file.
(
  echo AAEC/v8iXD8KQQ==
) > "%TEMP%\ferry-body.b64"
certutil -f -decode "%TEMP%\ferry-body.b64" "%TEMP%\ferry-body.bin" >nul
curl.exe https://api.example.com/blobs ^
  -H ^"Content-Type: application/octet-stream^" ^
  --data-binary "@%TEMP%\ferry-body.bin"
