// In browsers fetch silently drops Cookie (forbidden header name); Node.js sends it.
const response = await fetch("https://api.example.com/%C3%BCn%C3%AF%20c%C3%B4d%C3%A9/%22q%22?name=a%20b&quote='x'&dollar=$HOME&pct=100%25&caret=%5E&tick=%60&back=%5C&uni=%E6%97%A5%E6%9C%AC", {
  method: "PATCH",
  headers: {
    "X-Quote": "it's \"quoted\"",
    "X-Dollar": "$HOME $(id) `id` ${x} #{y}",
    "X-Backslash": "C:\\path\\n\\\"end\\",
    "X-Percent": "%PATH% 100% %%",
    "X-Caret": "a^b & c | d > e < f !g",
    "X-Multi": "one, two",
    "Cookie": "a=1; b=2",
    "Content-Type": "text/plain; charset=utf-8",
  },
  body: "line1\nsingle 'quoted' and \"double\" quotes, $HOME $(id) `id` ${x}, back\\slash \\n \\\", %PATH% 100% %%, ^caret & amp | pipe > gt < lt, !bang, #{ruby} {brace}, tab\t, unicode héllo 日本 🚀, typographic ‘quotes’\r\nend",
});

console.log(response.status);
console.log(await response.text());
