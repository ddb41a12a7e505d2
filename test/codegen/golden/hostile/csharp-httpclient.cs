using System.Text;

using var client = new HttpClient();
using var request = new HttpRequestMessage(new HttpMethod("PATCH"), "https://api.example.com/%C3%BCn%C3%AF%20c%C3%B4d%C3%A9/%22q%22?name=a%20b&quote='x'&dollar=$HOME&pct=100%25&caret=%5E&tick=%60&back=%5C&uni=%E6%97%A5%E6%9C%AC");
request.Content = new ByteArrayContent(Encoding.UTF8.GetBytes("line1\nsingle 'quoted' and \"double\" quotes, $HOME $(id) `id` ${x}, back\\slash \\n \\\", %PATH% 100% %%, ^caret & amp | pipe > gt < lt, !bang, #{ruby} {brace}, tab\t, unicode héllo 日本 🚀, typographic ‘quotes’\r\nend"));
request.Headers.TryAddWithoutValidation("X-Quote", "it's \"quoted\"");
request.Headers.TryAddWithoutValidation("X-Dollar", "$HOME $(id) `id` ${x} #{y}");
request.Headers.TryAddWithoutValidation("X-Backslash", "C:\\path\\n\\\"end\\");
request.Headers.TryAddWithoutValidation("X-Percent", "%PATH% 100% %%");
request.Headers.TryAddWithoutValidation("X-Caret", "a^b & c | d > e < f !g");
request.Headers.TryAddWithoutValidation("X-Multi", "one, two");
request.Headers.TryAddWithoutValidation("Cookie", "a=1; b=2");
request.Content.Headers.TryAddWithoutValidation("Content-Type", "text/plain; charset=utf-8");

using var response = await client.SendAsync(request);
Console.WriteLine((int)response.StatusCode);
Console.WriteLine(await response.Content.ReadAsStringAsync());
