/** Peterson, filter and bakery locks for the threads of one JVM; no dependencies. */
module io.dlock.sharedmemory {
    exports io.dlock.sharedmemory;
}
