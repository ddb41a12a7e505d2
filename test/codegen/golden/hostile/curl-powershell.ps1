# The command line cannot carry this body as it is, for its length or its characters: decode it from Base64 into a temporary file.
$bodyFile = Join-Path ([IO.Path]::GetTempPath()) 'ferry-body.bin'
[IO.File]::WriteAllBytes($bodyFile, [Convert]::FromBase64String('bGluZTEKc2luZ2xlICdxdW90ZWQnIGFuZCAiZG91YmxlIiBxdW90ZXMsICRIT01FICQoaWQpIGBpZGAgJHt4fSwgYmFja1xzbGFzaCBcbiBcIiwgJVBBVEglIDEwMCUgJSUsIF5jYXJldCAmIGFtcCB8IHBpcGUgPiBndCA8IGx0LCAhYmFuZywgI3tydWJ5fSB7YnJhY2V9LCB0YWIJLCB1bmljb2RlIGjDqWxsbyDml6XmnKwg8J+agCwgdHlwb2dyYXBoaWMg4oCYcXVvdGVz4oCZDQplbmQ='))
curl.exe -X PATCH 'https://api.example.com/%C3%BCn%C3%AF%20c%C3%B4d%C3%A9/%22q%22?name=a%20b&quote=''x''&dollar=$HOME&pct=100%25&caret=%5E&tick=%60&back=%5C&uni=%E6%97%A5%E6%9C%AC' `
  -H 'X-Quote: it''s "quoted"' `
  -H 'X-Dollar: $HOME $(id) `id` ${x} #{y}' `
  -H 'X-Backslash: C:\path\n\"end\' `
  -H 'X-Percent: %PATH% 100% %%' `
  -H 'X-Caret: a^b & c | d > e < f !g' `
  -H 'X-Multi: one' `
  -H 'X-Multi: two' `
  -H 'Cookie: a=1' `
  -H 'Cookie: b=2' `
  -H 'Content-Type: text/plain; charset=utf-8' `
  --data-binary "@$bodyFile"
