// AWS Signature Version 4: the signature below was made for one send and expires soon.
// This code cannot sign each request: sign it again before sending (Ferry does this on every send).
import okhttp3.OkHttpClient
import okhttp3.Request

fun main() {
    val request = Request.Builder()
        .url("https://api.example.com/bucket/key")
        .addHeader("X-Amz-Date", "20260101T000000Z")
        .addHeader("Authorization", "AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/s3/aws4_request, SignedHeaders=host;x-amz-date, Signature=abc")
        .method("GET", null)
        .build()

    OkHttpClient().newCall(request).execute().use { response ->
        println(response.code)
        println(response.body!!.string())
    }
}
