/**
 * What several election algorithms share: the ring and phase arithmetic of
 * Franklin's and Peterson's algorithms ({@link io.dlock.election.common.ElectionSupport}).
 */
package io.dlock.election.common;
