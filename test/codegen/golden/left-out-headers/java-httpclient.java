// Host and Content-Length left out: java.net.http.HttpClient sets them from the URL and the body.
// Connection left out: java.net.http.HttpClient refuses to set this header.
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

public class Main {
    public static void main(String[] args) throws Exception {
        HttpRequest request = HttpRequest.newBuilder()
            .uri(URI.create("https://api.example.com/things"))
            .header("Accept-Encoding", "gzip")
            .header("Content-Type", "application/json")
            .header("X-Empty", "")
            .method("GET", HttpRequest.BodyPublishers.ofString("{\"q\":\"body on GET\"}", StandardCharsets.UTF_8))
            .build();
        HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        System.out.println(response.statusCode());
        System.out.println(response.body());
    }
}
