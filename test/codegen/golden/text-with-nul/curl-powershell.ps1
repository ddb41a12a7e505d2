# The command line cannot carry this body as it is, for its length or its characters: decode it from Base64 into a temporary file.
$bodyFile = Join-Path ([IO.Path]::GetTempPath()) 'ferry-body.bin'
[IO.File]::WriteAllBytes($bodyFile, [Convert]::FromBase64String('YQBiAWMbWzBtf2Q='))
curl.exe https://api.example.com/raw `
  -H 'Content-Type: text/plain' `
  --data-binary "@$bodyFile"
