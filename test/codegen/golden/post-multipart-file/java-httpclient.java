// java.net.http has no multipart support: the body is built by hand.
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

public class Main {
    public static void main(String[] args) throws Exception {
        ByteArrayOutputStream form = new ByteArrayOutputStream();
        form.write("------FerryFormBoundary7MA4YWxkTrZu0gW\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHoliday\r\n------FerryFormBoundary7MA4YWxkTrZu0gW\r\nContent-Disposition: form-data; name=\"meta\"\r\nContent-Type: application/json\r\n\r\n{\"a\":1}\r\n------FerryFormBoundary7MA4YWxkTrZu0gW\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"photo.png\"\r\nContent-Type: image/png\r\n\r\n".getBytes(StandardCharsets.UTF_8));
        form.write(Files.readAllBytes(Path.of("/home/me/api/files/photo.png")));
        form.write("\r\n------FerryFormBoundary7MA4YWxkTrZu0gW--\r\n".getBytes(StandardCharsets.UTF_8));
        HttpRequest request = HttpRequest.newBuilder()
            .uri(URI.create("https://api.example.com/upload"))
            .header("Content-Type", "multipart/form-data; boundary=----FerryFormBoundary7MA4YWxkTrZu0gW")
            .method("POST", HttpRequest.BodyPublishers.ofByteArray(form.toByteArray()))
            .build();
        HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        System.out.println(response.statusCode());
        System.out.println(response.body());
    }
}
