import 'dart:convert';
import 'package:http/http.dart' as http;

Future<void> main() async {
  final request = http.Request("POST", Uri.parse("https://api.example.com/raw"));
  request.headers.addAll({
    "Content-Type": "text/plain",
  });
  request.bodyBytes = utf8.encode("a\x00b\x01c\x1b[0m\x7fd");

  final response = await http.Response.fromStream(await request.send());
  print(response.statusCode);
  print(response.body);
}
