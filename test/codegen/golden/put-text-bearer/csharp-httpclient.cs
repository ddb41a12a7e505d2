using System.Text;

using var client = new HttpClient();
using var request = new HttpRequestMessage(new HttpMethod("PUT"), "https://api.example.com/notes/1");
request.Content = new ByteArrayContent(Encoding.UTF8.GetBytes("Hello, world.\nSecond line."));
request.Headers.TryAddWithoutValidation("Authorization", "Bearer eyJhbGciOi.J9");
request.Content.Headers.TryAddWithoutValidation("Content-Type", "text/plain");

using var response = await client.SendAsync(request);
Console.WriteLine((int)response.StatusCode);
Console.WriteLine(await response.Content.ReadAsStringAsync());
