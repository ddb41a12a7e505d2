// Digest auth: this code cannot answer the server's Digest challenge, so it sends no credentials.
// Send the request from Ferry, or use a client with Digest support (for example curl --digest -u USER:PASSWORD).
using System.Text;

using var client = new HttpClient();
using var request = new HttpRequestMessage(new HttpMethod("GET"), "https://api.example.com/private");

using var response = await client.SendAsync(request);
Console.WriteLine((int)response.StatusCode);
Console.WriteLine(await response.Content.ReadAsStringAsync());
