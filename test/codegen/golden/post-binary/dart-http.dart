import 'dart:convert';
import 'package:http/http.dart' as http;

Future<void> main() async {
  final request = http.Request("POST", Uri.parse("https://api.example.com/blobs"));
  request.headers.addAll({
    "Content-Type": "application/octet-stream",
  });
  request.bodyBytes = base64Decode("AAEC/v8iXD8KQQ==");

  final response = await http.Response.fromStream(await request.send());
  print(response.statusCode);
  print(response.body);
}
