import 'dart:convert';
import 'package:http/http.dart' as http;

Future<void> main() async {
  final request = http.Request("PUT", Uri.parse("https://api.example.com/notes/1"));
  request.headers.addAll({
    "Authorization": "Bearer eyJhbGciOi.J9",
    "Content-Type": "text/plain",
  });
  request.bodyBytes = utf8.encode("Hello, world.\nSecond line.");

  final response = await http.Response.fromStream(await request.send());
  print(response.statusCode);
  print(response.body);
}
