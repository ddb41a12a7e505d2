require "net/http"

uri = URI("https://api.example.com/%C3%BCn%C3%AF%20c%C3%B4d%C3%A9/%22q%22?name=a%20b&quote='x'&dollar=$HOME&pct=100%25&caret=%5E&tick=%60&back=%5C&uni=%E6%97%A5%E6%9C%AC")
request = Net::HTTP::Patch.new(uri)
request["X-Quote"] = "it's \"quoted\""
request["X-Dollar"] = "$HOME $(id) `id` ${x} \#{y}"
request["X-Backslash"] = "C:\\path\\n\\\"end\\"
request["X-Percent"] = "%PATH% 100% %%"
request["X-Caret"] = "a^b & c | d > e < f !g"
request["X-Multi"] = "one, two"
request["Cookie"] = "a=1; b=2"
request["Content-Type"] = "text/plain; charset=utf-8"
request.body = "line1\nsingle 'quoted' and \"double\" quotes, $HOME $(id) `id` ${x}, back\\slash \\n \\\", %PATH% 100% %%, ^caret & amp | pipe > gt < lt, !bang, \#{ruby} {brace}, tab\t, unicode héllo 日本 🚀, typographic ‘quotes’\r\nend"

response = Net::HTTP.start(uri.hostname, uri.port, use_ssl: uri.scheme == "https") do |http|
  http.request(request)
end

puts response.code
puts response.body
