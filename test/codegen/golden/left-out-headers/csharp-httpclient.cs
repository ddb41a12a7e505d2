// Host and Content-Length left out: HttpClient sets them from the URL and the body.
// Connection left out: it manages one connection, not the request, and Ferry does not send it either.
using System.Text;

using var client = new HttpClient();
using var request = new HttpRequestMessage(new HttpMethod("GET"), "https://api.example.com/things");
request.Content = new ByteArrayContent(Encoding.UTF8.GetBytes("{\"q\":\"body on GET\"}"));
request.Headers.TryAddWithoutValidation("Accept-Encoding", "gzip");
request.Content.Headers.TryAddWithoutValidation("Content-Type", "application/json");
request.Headers.TryAddWithoutValidation("X-Empty", "");

using var response = await client.SendAsync(request);
Console.WriteLine((int)response.StatusCode);
Console.WriteLine(await response.Content.ReadAsStringAsync());
