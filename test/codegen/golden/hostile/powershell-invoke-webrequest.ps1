$headers = @{
  'X-Quote' = 'it''s "quoted"'
  'X-Dollar' = '$HOME $(id) `id` ${x} #{y}'
  'X-Backslash' = 'C:\path\n\"end\'
  'X-Percent' = '%PATH% 100% %%'
  'X-Caret' = 'a^b & c | d > e < f !g'
  'X-Multi' = 'one, two'
  'Cookie' = 'a=1; b=2'
}
$body = [Convert]::FromBase64String('bGluZTEKc2luZ2xlICdxdW90ZWQnIGFuZCAiZG91YmxlIiBxdW90ZXMsICRIT01FICQoaWQpIGBpZGAgJHt4fSwgYmFja1xzbGFzaCBcbiBcIiwgJVBBVEglIDEwMCUgJSUsIF5jYXJldCAmIGFtcCB8IHBpcGUgPiBndCA8IGx0LCAhYmFuZywgI3tydWJ5fSB7YnJhY2V9LCB0YWIJLCB1bmljb2RlIGjDqWxsbyDml6XmnKwg8J+agCwgdHlwb2dyYXBoaWMg4oCYcXVvdGVz4oCZDQplbmQ=')
$response = Invoke-WebRequest -Uri 'https://api.example.com/%C3%BCn%C3%AF%20c%C3%B4d%C3%A9/%22q%22?name=a%20b&quote=''x''&dollar=$HOME&pct=100%25&caret=%5E&tick=%60&back=%5C&uni=%E6%97%A5%E6%9C%AC' `
  -Method Patch `
  -Headers $headers `
  -Body $body `
  -ContentType 'text/plain; charset=utf-8' `
  -SkipHeaderValidation
$response.StatusCode
$response.Content
