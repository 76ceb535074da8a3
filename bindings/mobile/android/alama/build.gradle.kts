// The Alama AAR: jniLibs/<abi>/libalama_mobile.so + the UniFFI-generated Kotlin (package ke.alama),
// both written by ../build-aar.sh.
plugins {
    id("com.android.library")
    id("org.jetbrains.kotlin.android")
}

android {
    namespace = "ke.alama"
    compileSdk = 35

    defaultConfig {
        minSdk = 24
        consumerProguardFiles("consumer-rules.pro")
        ndk {
            abiFilters += listOf("arm64-v8a", "armeabi-v7a", "x86_64")
        }
    }

    compileOptions {
        sourceCompatibility = JavaVersion.VERSION_17
        targetCompatibility = JavaVersion.VERSION_17
    }
}

kotlin {
    jvmToolchain(17)
}

dependencies {
    // The generated code calls the Rust library through JNA (the AAR carries libjnidispatch.so).
    api("net.java.dev.jna:jna:5.17.0@aar")
    // For the `suspend` functions (scoreStatementAsync, parseStatementAsync).
    api("org.jetbrains.kotlinx:kotlinx-coroutines-core:1.10.2")
}
