wget --quiet \
  --output-document=- \
  --method=PATCH \
  --header='X-Quote: it'\''s "quoted"' \
  --header='X-Dollar: $HOME $(id) `id` ${x} #{y}' \
  --header='X-Backslash: C:\path\n\"end\' \
  --header='X-Percent: %PATH% 100% %%' \
  --header='X-Caret: a^b & c | d > e < f !g' \
  --header='X-Multi: one, two' \
  --header='Cookie: a=1; b=2' \
  --header='Content-Type: text/plain; charset=utf-8' \
  --body-data=$'line1\nsingle \'quoted\' and "double" quotes, $HOME $(id) `id` ${x}, back\\slash \\n \\", %PATH% 100% %%, ^caret & amp | pipe > gt < lt, !bang, #{ruby} {brace}, tab\t, unicode héllo 日本 🚀, typographic ‘quotes’\r\nend' \
  'https://api.example.com/%C3%BCn%C3%AF%20c%C3%B4d%C3%A9/%22q%22?name=a%20b&quote='\''x'\''&dollar=$HOME&pct=100%25&caret=%5E&tick=%60&back=%5C&uni=%E6%97%A5%E6%9C%AC'
