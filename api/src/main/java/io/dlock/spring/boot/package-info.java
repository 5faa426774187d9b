/**
 * Spring Boot auto-configuration of a dlock node ({@link io.dlock.spring.boot.DlockAutoConfiguration}): a
 * {@link io.dlock.LockService} bean from the {@code dlock.*} properties, and its health indicator and Micrometer
 * binder when their libraries are present. Spring Boot (spring-boot-autoconfigure, and spring-boot-health for the
 * health indicator) is an optional dependency of dlock-api ({@code requires static}): an application without it
 * never loads this package.
 */
package io.dlock.spring.boot;
