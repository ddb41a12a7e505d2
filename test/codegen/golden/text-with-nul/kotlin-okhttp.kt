import okhttp3.MediaType.Companion.toMediaTypeOrNull
import okhttp3.OkHttpClient
import okhttp3.Request
import okhttp3.RequestBody.Companion.toRequestBody

fun main() {
    val request = Request.Builder()
        .url("https://api.example.com/raw")
        .method("POST", "a\u0000b\u0001c\u001b[0m\u007fd".toByteArray().toRequestBody("text/plain".toMediaTypeOrNull()))
        .build()

    OkHttpClient().newCall(request).execute().use { response ->
        println(response.code)
        println(response.body!!.string())
    }
}
