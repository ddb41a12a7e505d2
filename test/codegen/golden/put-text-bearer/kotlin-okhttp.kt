import okhttp3.MediaType.Companion.toMediaTypeOrNull
import okhttp3.OkHttpClient
import okhttp3.Request
import okhttp3.RequestBody.Companion.toRequestBody

fun main() {
    val request = Request.Builder()
        .url("https://api.example.com/notes/1")
        .addHeader("Authorization", "Bearer eyJhbGciOi.J9")
        .method("PUT", "Hello, world.\nSecond line.".toByteArray().toRequestBody("text/plain".toMediaTypeOrNull()))
        .build()

    OkHttpClient().newCall(request).execute().use { response ->
        println(response.code)
        println(response.body!!.string())
    }
}
