// Digest auth: this code cannot answer the server's Digest challenge, so it sends no credentials.
// Send the request from Ferry, or use a client with Digest support (for example curl --digest -u USER:PASSWORD).
import 'package:http/http.dart' as http;

Future<void> main() async {
  final request = http.Request("GET", Uri.parse("https://api.example.com/private"));

  final response = await http.Response.fromStream(await request.send());
  print(response.statusCode);
  print(response.body);
}
