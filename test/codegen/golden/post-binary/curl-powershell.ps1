# The body is binary: decode it from Base64 into a temporary file.
$bodyFile = Join-Path ([IO.Path]::GetTempPath()) 'ferry-body.bin'
[IO.File]::WriteAllBytes($bodyFile, [Convert]::FromBase64String('AAEC/v8iXD8KQQ=='))
curl.exe https://api.example.com/blobs `
  -H 'Content-Type: application/octet-stream' `
  --data-binary "@$bodyFile"
