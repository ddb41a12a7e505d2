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
  --data-raw 'line1
single ''quoted'' and "double" quotes, $HOME $(id) `id` ${x}, back\slash \n \", %PATH% 100% %%, ^caret & amp | pipe > gt < lt, !bang, #{ruby} {brace}, tab	, unicode héllo 日本 🚀, typographic ‘‘quotes’’
end'
