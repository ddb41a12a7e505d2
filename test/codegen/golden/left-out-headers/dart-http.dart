// Host and Content-Length left out: the http package sets them from the URL and the body.
// Connection left out: it manages one connection, not the request, and Ferry does not send it either.
// Accept-Encoding left out: the http package sends its own and decompresses the answer.
import 'dart:convert';
import 'package:http/http.dart' as http;

Future<void> main() async {
  final request = http.Request("GET", Uri.parse("https://api.example.com/things"));
  request.headers.addAll({
    "Content-Type": "application/json",
    "X-Empty": "",
  });
  request.bodyBytes = utf8.encode("{\"q\":\"body on GET\"}");

  final response = await http.Response.fromStream(await request.send());
  print(response.statusCode);
  print(response.body);
}
