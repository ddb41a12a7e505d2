// Content-Type left out: the http package sets it with the multipart boundary.
// http.MultipartRequest cannot set a Content-Type on text parts; sent without it: meta.
// http.MultipartRequest sends the text fields before the files.
import 'package:http/http.dart' as http;
import 'package:http_parser/http_parser.dart';

Future<void> main() async {
  final request = http.MultipartRequest("POST", Uri.parse("https://api.example.com/upload"));
  request.fields["title"] = "Holiday";
  request.fields["meta"] = "{\"a\":1}";
  request.files.add(await http.MultipartFile.fromPath("photo", "/home/me/api/files/photo.png", filename: "photo.png", contentType: MediaType.parse("image/png")));

  final response = await http.Response.fromStream(await request.send());
  print(response.statusCode);
  print(response.body);
}
