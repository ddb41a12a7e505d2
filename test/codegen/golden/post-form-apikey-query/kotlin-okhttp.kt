import okhttp3.MediaType.Companion.toMediaTypeOrNull
import okhttp3.OkHttpClient
import okhttp3.Request
import okhttp3.RequestBody.Companion.toRequestBody

fun main() {
    val request = Request.Builder()
        .url("https://api.example.com/login?api_key=k3y%2B1")
        .method("POST", "user=ada&pass=p%40ss+word".toByteArray().toRequestBody("application/x-www-form-urlencoded".toMediaTypeOrNull()))
        .build()

    OkHttpClient().newCall(request).execute().use { response ->
        println(response.code)
        println(response.body!!.string())
    }
}
