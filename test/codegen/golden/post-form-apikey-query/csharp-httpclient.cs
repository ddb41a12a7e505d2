using System.Text;

using var client = new HttpClient();
using var request = new HttpRequestMessage(new HttpMethod("POST"), "https://api.example.com/login?api_key=k3y%2B1");
request.Content = new ByteArrayContent(Encoding.UTF8.GetBytes("user=ada&pass=p%40ss+word"));
request.Content.Headers.TryAddWithoutValidation("Content-Type", "application/x-www-form-urlencoded");

using var response = await client.SendAsync(request);
Console.WriteLine((int)response.StatusCode);
Console.WriteLine(await response.Content.ReadAsStringAsync());
