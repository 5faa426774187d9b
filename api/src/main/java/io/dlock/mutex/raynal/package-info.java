/**
 * Raynal's prime-number algorithm (docs/algorithms.md A11, notes S3; Raynal 1989): pairwise coprime
 * attributes {@code A_i}, rationals {@code X_i} whose product is {@code Q / A_h} for the privileged
 * node h, the test {@code T == Q / A_i}, and the right passed along the ring by
 * {@code X_i := X_i · A_i / A_(i+1)}. The default is the source notes' INFORM modification (no requests,
 * cannot deadlock, {@code d(N-1)} messages, the right circulates forever with a configurable idle
 * pause); option {@code original} runs the REQUEST/REPLY version, which can deadlock. Values are exact
 * ({@link io.dlock.mutex.raynal.PrimeRatio}, exponent vectors over the attributes).
 *
 * <p>Entry point: {@link io.dlock.mutex.raynal.RaynalDefinition}, registered as {@code raynal} in
 * {@link io.dlock.MutexAlgorithm}.
 */
package io.dlock.mutex.raynal;
