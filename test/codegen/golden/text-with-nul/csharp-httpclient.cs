using System.Text;

using var client = new HttpClient();
using var request = new HttpRequestMessage(new HttpMethod("POST"), "https://api.example.com/raw");
request.Content = new ByteArrayContent(Encoding.UTF8.GetBytes("a\u0000b\u0001c\u001b[0m\u007fd"));
request.Content.Headers.TryAddWithoutValidation("Content-Type", "text/plain");

using var response = await client.SendAsync(request);
Console.WriteLine((int)response.StatusCode);
Console.WriteLine(await response.Content.ReadAsStringAsync());
