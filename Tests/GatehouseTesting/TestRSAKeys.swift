/// RSA keys made once with `openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048` for the tests,
/// with their public halves (`openssl pkey -pubout`): generating a 2048-bit key takes 0.2-0.8 s of
/// CPU, and the suite asked for about seventy of them. They sign nothing but test fixtures.
public enum TestRSAKeys {
    /// (private key PEM, public key PEM) pairs, each key distinct.
    public static let pairs: [(privatePEM: String, publicPEM: String)] = [
        (
            """
            -----BEGIN PRIVATE KEY-----
            MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDtjzL28oqsU6G7
            0DB5wjr/S+qnSESnFHYhuEvm//Ih4X6SP5r3MvzXKedheLlu5x/oxJToLtqmbnB3
            IG7VWOSGJMxq63L8QrNUAs2Vq2oDGOC/uxAMhzlXpXqdoYvY281v7lxYLSMZ7kZr
            I82XPW4o83R2RT5sxCOS0ODSCX/dOLPzBRhph6xWqjnuepeWkiGg9O1zoat3a6tl
            3borwpb/4zoRISuEJ1ghB7VmL/dyMvcreWN8XfHLigQVYE2cVpP7JWJYtx/2L6Y1
            cjnLGit7jquXcJOn7itWOCUV9mRPPkmzFnV30BJ05ZtqmhQnVP5Bj+A4FTnk6x17
            clMmKQNDAgMBAAECggEAAeTyohd8ombBIAJ6Y64rbESKgkgupZDUzexugB2p+Tn9
            sv4NpuT7ZF4+kxkBJlcMR33lAuKRkC9kEP8enLyEITG2U5ZXD2ROXvm6vyb9X5+/
            ww4J0OyPH3//tbWt3zSf5o5lb1D4BuMbuqT8pOhMS/uzaD7UtZqGy7GD6W9CW5A6
            23Dhhq0VSmemyTFau0g0FneccTkv5mc8TFmD6v2gn4O/Hac7EwUFiyOOcqsMKFRl
            z3AWYJOFOaq5fUGKZngmZg9DyhZjzd63r19sLXWGosFdxmQpG6Iz+b50eFNH0LNq
            xlYzNYFY7N7PPWyPJ9HgP/AkU6WM1stcwvBmINQh4QKBgQD4bDTw0bmtwPJ2/pyW
            uYzmuqztn1upqO9F5rY7h3oEopO4QhLD8KcsjEAbgLnf+mrZRYhNJHlm0rEw/XLs
            BDnMhLW+eKVY2t09bJHAv324A+kPkGr47QWpVyY+Cvdm99kb/6jSe+/9xrCzk478
            Oo2roohaEvi0Rk9RhA7QC4af8wKBgQD0ziqyV4fc7/pjAEH4tr7NoGEGxK57ffwa
            ENTfF4ZilStXMPTFgZ9w9uX6lRPpVZyMfabqUqcEEj8Hz84y21hpHHeNRGcQ8rO3
            m4+rqB6CzyJ1pLCdR7y1wFplC1Bu5lHwZKvgEQ7+h7xYr9rmwN8xmQ6k6eYbDbUx
            alQyEWUzcQKBgQCQja50nyUTdR3hniCSGCBkNiXgE4WsALBSlYBevWOEBPI+Grx+
            pa8xXd8D4fDG4xl/mlVIxjuaWGlg32oa6g6T8nkq/1r/jEOGtYFOjl7iT+wy8U89
            z/YmZp7LJWh20yvTff3HlPS+T/qMVAW0wYGkaOw8taNgizUmctiHuN06fwKBgDyA
            e5LqCRz0flhbZvKWD5/4RCKNF2ZT46t5f3LHeKICpdx9r/DkMUiU7I+6qlofm3op
            T8hXtwlNjSBcHmT5SudnbrCOOD67DOmS27Yb7bZ8hNK4aiHk6eGtcWnJmw5dg+C6
            sLPG44LKfyUYCSzAfCjg3/qoCAOlpqNY2Qgqvm0xAoGAP4bjGh27apTsKGwrRVYo
            /TPlQl4QFIRV1jsdhzQJWnjQ3yoQAXiRkJXM63zX/i1xfAjpHIlSHzh0EztYhw4u
            U25DuUG1UiwFzAtW9mlNWrl78asxgGR3mhIP36wSbUBGUkw+HNSbjPYvtMHWnfHQ
            DF9r5pbLjjte3DbhahXCScY=
            -----END PRIVATE KEY-----

            """,
            """
            -----BEGIN PUBLIC KEY-----
            MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA7Y8y9vKKrFOhu9AwecI6
            /0vqp0hEpxR2IbhL5v/yIeF+kj+a9zL81ynnYXi5bucf6MSU6C7apm5wdyBu1Vjk
            hiTMauty/EKzVALNlatqAxjgv7sQDIc5V6V6naGL2NvNb+5cWC0jGe5GayPNlz1u
            KPN0dkU+bMQjktDg0gl/3Tiz8wUYaYesVqo57nqXlpIhoPTtc6Grd2urZd26K8KW
            /+M6ESErhCdYIQe1Zi/3cjL3K3ljfF3xy4oEFWBNnFaT+yViWLcf9i+mNXI5yxor
            e46rl3CTp+4rVjglFfZkTz5JsxZ1d9ASdOWbapoUJ1T+QY/gOBU55Osde3JTJikD
            QwIDAQAB
            -----END PUBLIC KEY-----

            """
        ),
        (
            """
            -----BEGIN PRIVATE KEY-----
            MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQClydO95D64BzLJ
            qxomriXy2130E6FiKsvdKlMaCdqTU8RiSGIm6TUedZrZjCpYNIsBj8bfluS5MJr3
            KzyDzWJ8/9w31IJ87xbozUbZUCSz4M+vIssZShas7wYVaqQIMsMzh5fa7r1tY9ao
            MsRFnHfnh/qlqYJ0dv4koYLJYqhpmn77pK4LCwazdgAllko3gidoc4Vm9NlE28yP
            YjeFsnUi9YsipxZRbQ085mAmqurVmdcQz2HDRXEMjwBrJZx8NbUDFTVIYvpjLs8r
            52v/hkbrYwoxzuXG7Ce58rrDiXplJDseKPQFP/4ftvC4DE/4xnwXc1A/fqM2OBaG
            5ErkVN9HAgMBAAECggEAEvHiSWPIqvzfl93+igcCfSMGNHr9yRr82tQYVPRlTsqW
            uWhuFuY1VLq5rDxxJk0yyUXlwu0aS/M68h21t5YDuCcAwjx9gMtNgeLbQr/+wbNh
            6DCApu4pcy+JMW9TOUCbv8qx1qnLabGr+OJ8PTwpE4MdaErbhnWGiycNq/ejKRX4
            ZVGw/GgmZAc5YwBTxbcUwWviBwWWf8+g4kZUSDLfzYy+VzWhT5+bL9MQC8+Se0gb
            TRHxmRWFqWUUc2wJsRbZ0+mlh6Gn6UkAXp4x9OLkIAyZtEQfeqO2Ok2qbDHJZ65s
            QKMylSFsqJxuyy0lL/qIB8qBweFThkhxheZ28BrvMQKBgQDXbFFvnCIQmzHIhbpt
            HIir0v+SgY/NoNktqq1Znt0wIeY6zeiVgc9Wp5jGWSHdjVz0Td6cAFj6QNxu9Ewu
            DDS+lMULPNsXn4oTbIQ6GW+i4V3zcr+FDJkcX0CLyZlpHF8RZP4am7wN7ZNQDcD9
            P5LRgDgjfXQLQ9jB6udt/UPZKQKBgQDFBCCKE/FyGzgrpwwR85mmgEWDJ1BHPjUe
            viypLDheC88WOIJ1jlQWqIF2J2Hvna0ol58nWrG2GzeU1M2Q2x2/eNNPoymOGALi
            71Pcb/SgubK3EkS/OBQvfFYRg9Oj+9Q9erLkVvQZ94Lq0pB/f+LA+Es46f++WSEF
            Srvrer5S7wKBgCHGPsJT5VdbLaP1q3Pd7GOcEivDGmuv0z0ArGsHqEAaoIEJtXRz
            RLGeVyqJ4PBecHtxFfy5ZTnfH3BZ5vO1QDO9GWOYp/T9M2W2NsjxIfqUgOlhTTur
            7Plwyarg8ad0JkeQ4PIFBqfcXqNHdMF/zSIBi0utKJt3iK1mieBJu/B5AoGBAJ8W
            ThAxOm4hfKIDKcP1KMVCHt9hB3n/yXUhq36PrpSChJ4002OJom0JdECsXHDYqdJ1
            XJayrX2XTLJpg/TMeqD6N+e+oPeUfAAzsUv3O1ntmVoq7khaSDJv/C/4exWXbDKY
            uYuYi1PMgXKMxRGverLHzDYQ/en+nqNfTY9Adh8RAoGBAJU3OkLEomq4Imesk86y
            hk/w7CQRrb1nLbpab+zb7Jt1zXtpkjMnlvqrO73EAMGVAHg9jdfaIcUpLkNnrb8/
            ilqOem+i/V+FvTzaVsByHIeOAtva070y3ylYGeHnMZ8zVxAFO1WsreAzRNVL2by9
            ZvvXeAFwt3MV4WW/LyUFScH7
            -----END PRIVATE KEY-----

            """,
            """
            -----BEGIN PUBLIC KEY-----
            MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEApcnTveQ+uAcyyasaJq4l
            8ttd9BOhYirL3SpTGgnak1PEYkhiJuk1HnWa2YwqWDSLAY/G35bkuTCa9ys8g81i
            fP/cN9SCfO8W6M1G2VAks+DPryLLGUoWrO8GFWqkCDLDM4eX2u69bWPWqDLERZx3
            54f6pamCdHb+JKGCyWKoaZp++6SuCwsGs3YAJZZKN4InaHOFZvTZRNvMj2I3hbJ1
            IvWLIqcWUW0NPOZgJqrq1ZnXEM9hw0VxDI8AayWcfDW1AxU1SGL6Yy7PK+dr/4ZG
            62MKMc7lxuwnufK6w4l6ZSQ7Hij0BT/+H7bwuAxP+MZ8F3NQP36jNjgWhuRK5FTf
            RwIDAQAB
            -----END PUBLIC KEY-----

            """
        ),
        (
            """
            -----BEGIN PRIVATE KEY-----
            MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQDYTcSEMKPxdrWA
            jzwHxtgSBYqMfYFV1fqFTPMrnVoI9zN2DDNM1yUee/oYvDw5qIIoTB7YvCVEDdx0
            k0Yt1TPG4TwzlnAi3cWuM9fcp0rE7JOhgLS1a0vyDKATpMX5p32c+YIlmyq2G4cH
            7Y7Mwfc8uSbFBK8UXP1tIMIK9+rG0RAGL4DWbK7pTbCF1uN+hQpwrfx6rFpqjkhs
            B0riyH1UqHgkTSVM+F58L2aHSkpJYise/3JRT/UIcYY2N4Yfca6eQZql56+U/mod
            KH5lK0cZm2T7cS1oXp8Y8Gg1DUt1NIu0V+Mt6s4zHnuyeUyTy91U8vwJYwGSsfkE
            cde6vARLAgMBAAECggEAXUsJgARkqZBMT3M37pi+d+No8xhssMN2ZokedsjK3QQV
            74vqknFXArNxVrrVdP7viIbwZQWdQyGBXMxqn/kNeHGMICn6Gqexi+WzbGnBT3dE
            Y4uaJYduPathXaebdgbeIFbjYenvfZUY4/v7s+fTBZ9MD/zpsKw86BURbF6qpe4Z
            4b3TSgAjeYZLSkYnDUdDx5e1QW1WwVW22teThWN1+cBGCEyVpa93Uem4qv2Ymc8h
            FTPoEM/2dOOWwEc0CwcKB40wcKvqg6HcV9eJygYDuy2etVKxnQcmbM8HiQ1aHI6J
            gX27vaY7lp8GH6rP0iA6BrqKefv+h1SrcrxIA6dIcQKBgQDw9hfRb6aF8tnKA3rd
            WqfNbrplIyZ3vJVhHWIoPProQmm9uJfjBxVHQwYSt4tJpQRnk//KKczkcd7NeeJM
            xQgR7BNsYe9mC0Ea30s4R7hi/N/PU6uEVySOd8SZ/XFWEsd6jqHJhxOIdPHFgF7O
            UqFjqk4rPZNxxHDzUSoCJHUiewKBgQDlzbbjKEUruTfeu8P++O2ihmVs+T8yVNB1
            ljdGWW2tlfHW0l5kdsYdKA/lQ5eJjEFfSGMVOxHPEbKuaYvh8NV1T/RV/5IeD6XY
            DeD0SHXsOIGffczHjx3Se7DIBGdlkMpOANXBcgp0N+rxzzblHJAhXVS/lW9UgkDV
            hjeVnIOkcQKBgQCQfdGsijoeCpFknQ+ZGtqSyrpFGX3gwRoGYTtSC7cdfW2xEbcq
            sT2mPN+wa5W/tI9emRYCoWw29L15E4SLKn97V8gR7uxCka8ZsRqHBiLgYOjIh1DL
            jAHk2JbxDFRhG+O4bz0+/pvM8Otl1mODb3NNs3sqXMNErlpY3avGGxyObwKBgQDh
            KTeZyLpFhfwlA4qdh5+mz9IO/QQbt5hsrhtIlZTuMO29E3AjNXEV3kv80cZnogHn
            bxCOG8tuPSP62jWR0pwDjqyTmo67X4+aarbQAzNvmUoAUI1Vtnd85W6n/BCnJj/i
            P9Uw7iEqECPme6aIw/zAhCbmdG+ZuOn3jMNnluwxMQKBgDjWYuS3zUSIEpUyR8Vh
            T3xnx6JL5uCKI/hbIofsJN4deodTmHjeLGUzlmGK1FOEWKIbWoplbHhp98yhLfj3
            iwKlOb7kGz1quxcWZN+OEcS7Ej7wpQG6dE7JQQ7iPjPE3VNOSv6pwgyIQpNG+nWp
            iQ/hjWZnVKqpRS8WDFbDxNmm
            -----END PRIVATE KEY-----

            """,
            """
            -----BEGIN PUBLIC KEY-----
            MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA2E3EhDCj8Xa1gI88B8bY
            EgWKjH2BVdX6hUzzK51aCPczdgwzTNclHnv6GLw8OaiCKEwe2LwlRA3cdJNGLdUz
            xuE8M5ZwIt3FrjPX3KdKxOyToYC0tWtL8gygE6TF+ad9nPmCJZsqthuHB+2OzMH3
            PLkmxQSvFFz9bSDCCvfqxtEQBi+A1myu6U2whdbjfoUKcK38eqxaao5IbAdK4sh9
            VKh4JE0lTPhefC9mh0pKSWIrHv9yUU/1CHGGNjeGH3GunkGapeevlP5qHSh+ZStH
            GZtk+3EtaF6fGPBoNQ1LdTSLtFfjLerOMx57snlMk8vdVPL8CWMBkrH5BHHXurwE
            SwIDAQAB
            -----END PUBLIC KEY-----

            """
        ),
        (
            """
            -----BEGIN PRIVATE KEY-----
            MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQCtDJ6b307TkqSv
            4z5VmJXYi6ylvSgbqduIk0iH6J7bLksWOjf1iGQwW+Sa4V7mKBiYlNLdhCoVnoAZ
            9Q60VOwMorXp1OXbt1zsJF7td8l3bQFHT6mj40EOjXKQ8PuGTSRwV0cgRfkwNRm/
            65Bu7IoPyR4rvMEIysQM1LhZTnScugKW8r8fx93yXFd/xgcXEu+OQU25ChyiB7Xz
            fNlw9SgTHQB7lVrmgBwMTZ/1knRPk/ChXdzQxdnybVCLPPzqKt9HoXsTwzrrLvsG
            Is7wzBw4sShl+CITo6L7oanqHq2vDbGA93zxZf4OhyevjkUksGaM5dz5OsDOjb9w
            WbwCFUk/AgMBAAECggEAFQ4iBkknaCrBiv0VSojkQpLMEOZxCNyj73wsKQ0utvBt
            BmlTAbb0qcWkjQu65joetAH3nihEjpjYcVAV1+81QVxS0f6rcQ5gagMK4c3fX36N
            10VkGKK/+atQMz5+/BpKwrh72PtqlGkBlw5sZnK1YbJQz3WJ7y3sqLsBKyyWl7L+
            ztnW4O0LQ+duWlJ6X+q4bB4lhOphu7lgVb+oT5ThPhCBEL2RMvYrXxD8cUa6s6iD
            OBgFWJeG/NoEpJBItCHSCnYvVMSzHXsCldrcB8pDEFKGDtFxPfKCzFLuxh3lb3S6
            ZE2MCBAqDh0Ih3JgfOKUqim6qHJsPxlSdkqkeB6WkQKBgQDl0/lTFYXrseNXBpJz
            llfyFCacjKrtQilQOanN6HQeOJy3SF8HHEkQAlUcSfj2PzBOuKo4CXq5k1KSmVYA
            RkPIYh4NxlL+QtBtIw+EllCW+Q/Z7WbTFsoHKuopRWtWHCSC+agAp+Bmt7v4hXze
            RL/rlT7P9PqkTIuaZjJQvD2LXQKBgQDAwWmacDk1MOlsSakOQdXBGAoS3WX4aJDE
            ZcaFvyvvf2Wq0k0PIkPxOWjUwegVpfTYJVbQ3sQLfdQAD6pVTI/jdNHliOUJSPOE
            KepUOIG4qTPRisE0z2Xx5HAAxSsre7nt1lp0VnxXYNbp7pTnQGkklTU/KG3vIK6P
            H/MQhYD5SwKBgQCjvPB9i/D8aaEBKFKAfRUtB8Q2dlV0cVWDrYFXjIvl2Al23t2s
            8C7xc+f1HpJ7xasB+rhy8fX4bog+n3XQ/j5ebeDhiXEpaqqZhogQuxKxbMIpTeSa
            8Tp//sgTHT0KfURZ98oEpZXPOIl31oqOxEZDbfHxMKS9FzfCiZrBQEtMlQKBgCXt
            KHkxwZ/cquEasT/T5loi/8Bsfabd9DYgjGo+jkeGepuc23qx1Ep/cEgEi0TPLZjl
            5+obGtnj/TWx32L/OISZtL8EK4SjLP8BPFEr+SI7cK23LoLUmAt7VipgoTjiFFhe
            x9eCON78d+z5e6TwwH9pOFvf+ZmGhbI1qB7FFfZ3AoGAEnWUXCy/VtA7Gmt6fUgp
            q9HhweZDPPM9QLauwtrcz81acV31jkhDj7NhEYp/OGrUXL4VqlY8Khd618DaHjaa
            iUHed2YCS/LvZGB/xRCCAlxhRKNnVvth19E2zb14cqonGNNqHp2dhPO0QwUvyRvi
            4gwVW0leJOdrZ6OS9LLmaRE=
            -----END PRIVATE KEY-----

            """,
            """
            -----BEGIN PUBLIC KEY-----
            MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEArQyem99O05Kkr+M+VZiV
            2Iuspb0oG6nbiJNIh+ie2y5LFjo39YhkMFvkmuFe5igYmJTS3YQqFZ6AGfUOtFTs
            DKK16dTl27dc7CRe7XfJd20BR0+po+NBDo1ykPD7hk0kcFdHIEX5MDUZv+uQbuyK
            D8keK7zBCMrEDNS4WU50nLoClvK/H8fd8lxXf8YHFxLvjkFNuQocoge183zZcPUo
            Ex0Ae5Va5oAcDE2f9ZJ0T5PwoV3c0MXZ8m1Qizz86irfR6F7E8M66y77BiLO8Mwc
            OLEoZfgiE6Oi+6Gp6h6trw2xgPd88WX+Docnr45FJLBmjOXc+TrAzo2/cFm8AhVJ
            PwIDAQAB
            -----END PUBLIC KEY-----

            """
        ),
        (
            """
            -----BEGIN PRIVATE KEY-----
            MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQDFeGcKGE8TL6OY
            wT/+dJjxPs6K+XN4RRY6EqkOZw7ZzUOyKGf5rrsno38etqG6jJQmG52HcS39HsRQ
            xR6Fc4OnQJXQYV3FHLg4UCvmAISqb3DqD5TED1WJSIPeY0VOQaP2loJBm/J7zj65
            w70wVMKKDcjhpxWjU6micUWPG8fJ2nGkLkul7d+euJpZvNd11tfADjIZOxtWmIxB
            5FZA7FlWiK/fbVbj0IMCJsUAIng4YOg8oNfNToTFIQdMBylzrVJ1R8QvWAydPIfJ
            zTnLB6JbsIfdJnknKJur8mTyxNTNfnTJX9MqoAouZUzMFKj2NdcZuK5Hq7CulmFx
            pFHHA1RlAgMBAAECggEABEiZ1E59/jPFZYSNv/TNonLzHtVYiYxRPoHGgvZtWjfT
            KT5Lfj6kLm4eef5u1Di0dVGaIBQHfS//JjU4HLXbIE0++Ekarqy6pAtNWS0PF9n/
            toeVCnoBSZ1aN05BMdcKgl7JoOqL+r13kBYi1GeRmXeq6NmErYOiTy9aMqu/hBc6
            vxA9Z+0+fFMjXkGU6f7SUMvL0SnQl83zjZ6wYlW+5uTQNIAadKrg0nY448wptVxY
            tCfdwG1VxxECCDyjguNNwmDDt3+WoIq9Kgp4JtoMXqISgbjl2AOfOBzUcRCDPBG+
            vC9sUz6MlkSrxsrpUUgsmU6tp1f+VZOZQx8ly/m0SQKBgQD8LVsLZRmoBl1VNpz+
            wS4oXCfvvMF2GUR+xakFNry+tDstM1EUIUPsZX/ntfRjEpRb27sknLSq81UusdMq
            bfZmQsfLNuxO1atvegUCl6/1MStjjAxUlkixkPE6yA8INuuQ4EvJHPUA3vHq7tsg
            8C2SxS5d6wJG86wGptNmtTuIVwKBgQDIdr3W85QRi2F6qED0+5Ohke5KjNEEOsmf
            U7YD9O4B3VblQZfSWZ3XhoK3WIV/rfh9caChrYguvcTCMK9uHD3AKQ62rBHy5p89
            kEhYaLurqlq4r7FDK6kjao5p6m6/+OeZO3HN2gqVUmsjS65Kz6nqNxt3iRHtst0I
            7Oi11QGDowKBgEZeoblcTPyGSiUtSEIOxkKc9MgBdDrwchyuK6w4yhKtWJYUa9ui
            LMIa0MZoD/pVhPDdMCvXTtMlc+/Dz5lXdhqzJ+2dNfQJy/0fn6ZJjeBuCB2PRyGT
            jlV+jNJKYWd5a+LRtFQ6sGO90uQsIxnd69m5DGdI3SnPdYGlq/hNOn+hAoGBALnb
            raMPbqbdjWFFggQhA/126XHhISFEyA6adFUyz0CXUKt5pyN1xyw+IA+RWSTJzWuw
            3/dGhs6fTz+kF+KE+JOi/WtMGdAVFmrjzM97OxSr+zTkX/shDc4ySxvUKR5/zWp6
            fMcYc1uCcKbm0g+2fZkTwrmPMjop7VkLHa8IcED1AoGBAPiKiv0inGliTd4Pt6qm
            cH02UIPhyJ4oVf7cYBcZjWOpVPby6J0BtBaJModyLaRy5hV+ompGVuc8qQj0kTFE
            AhXs9CwX8Ge7QCpiDVV4G3z6Chz5xggQLziEnn+KXLU07qOox5z3pFLG/WqQRaGR
            qr9EB0VGgTqrGifBXuqUA+2A
            -----END PRIVATE KEY-----

            """,
            """
            -----BEGIN PUBLIC KEY-----
            MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAxXhnChhPEy+jmME//nSY
            8T7OivlzeEUWOhKpDmcO2c1Dsihn+a67J6N/HrahuoyUJhudh3Et/R7EUMUehXOD
            p0CV0GFdxRy4OFAr5gCEqm9w6g+UxA9ViUiD3mNFTkGj9paCQZvye84+ucO9MFTC
            ig3I4acVo1OponFFjxvHydpxpC5Lpe3fnriaWbzXddbXwA4yGTsbVpiMQeRWQOxZ
            Voiv321W49CDAibFACJ4OGDoPKDXzU6ExSEHTAcpc61SdUfEL1gMnTyHyc05ywei
            W7CH3SZ5Jyibq/Jk8sTUzX50yV/TKqAKLmVMzBSo9jXXGbiuR6uwrpZhcaRRxwNU
            ZQIDAQAB
            -----END PUBLIC KEY-----

            """
        ),
        (
            """
            -----BEGIN PRIVATE KEY-----
            MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQCliJZSfI3yrckK
            21cNqE61QBONUQlKTNdHRAmDMoGiXCfszfikMulotJL2eu7uuwwz0voTdvW8MWD6
            bj9S8V/obi6eHr+xvzB6Tj1zcWPJ5nlWrEEcf4Ure/JsTdp+edRGdF4/DFaxghRV
            Hij7IzEp9j99PV8e0t+OxTWS2uixui0t2BdAFBFGC8vZVDm0QkNtOsJq56VUN1uC
            Gx/qdxa3Mr7fL7E5zFEAu1e7KURGmmrWCMEdD0zAxTsm4HwvQaWG5NwikCVYoI23
            P1wzcsFFc8N/PzGgbUO1tra8sN9gt42vwGXd4VcwMnjVEplM0xc1pFpDRIQw4HbG
            VzTIZKanAgMBAAECggEARjMblNWvmRgsJ0eHrooO/vyyjf6s0u6taVKoOhRkN4ef
            guSCqpfQto/Ft3PA+ksmzJ+PYEvVwL6sIug4QKOOidKYQIRHxUiQdX3Sv695ozjz
            gldAsaY+woco8tc9bt+Zr1tQUKqZ5WOF3ecReBeflO0SVbl+KmNBXZmys5nUjvH3
            5KF1NyGi42WlrBr1MbNnNa2pGP1gMHY0eYIb2+AIBwxbQo7c8ifM1CcYdP5m0/79
            N4JEwy/5pruAa2LsdnWhkC/xEhUGge63eN5DnP7RrlTfjJvvegFmbEIZ4VUi45n2
            hQBYJHP9Yz2OJiao9K2rL4Jyv9ypNIrEyV37JoEPOQKBgQDT1JA5xnUZkNvLj+8u
            AVxiHtxDB4R1pH1GmMZx7IDrVT3ZNdmuoOximF9sXTNyjJlKOL5qsy1e2AAQPqTe
            NPL9ANa9RP6vzXOEk1F0ulUtRCsbKKf1tWdgDmogcxpmnNmkJRPzeLmHLcCU6Dq/
            OSzxjlWu/1FesZ/EvTfqE27JPQKBgQDIDLdPU4RBc0mUTL3flN1hFGfiuOzZ/T4c
            sCmIPIq0yBycpaQpEjaDrke0eAwE75FZvHSthHMH7HZd04q7OmyAZwTQrGrsn4xp
            UNNvyvXH1WqJW3yMlDOi2TCofla4f4ODzpsLyXiFNuk28jlgXov2K2CXVH+C9XBN
            yEnZ0nrFswKBgEnlJwLglkz62ZHjfh5gXyfjeBbx8mVPolwUQ3XOeRKfQ9oYDP38
            KTojyXX19VKKdZcMwHBcXQFu/GauU7koY3Oa7U5NWUNeumOPOKUtszT9SMRKpHz0
            cUFzBdaYEKenI809Gf6fKKldbocDlCrM+T6y1nUbn/kWoZNyJqVDbixJAoGBAMPE
            XecNLdH3BjxQVUdlILeOBpPCsFYrEwt0AVDHHl4HrqhFGL7widSXSqh7ChgScUVF
            vVDI2uEYMEVlbNAIPoHxTq7+66wf/oJZjHBMR/WFDjrZAqt3pIhqzsk0yZzHfGYS
            W3xPbte+gr84j5mVLJZ8oIu3LwlzMrGLnWnCJk8tAoGBAIB17eBYhUps8/EZrJP0
            ms1d1NuH+JMgdtdbRm7UmeEVJXB+o7apSKp6/KGQnr+jzpf1VTQX7hbr0ETgCeRM
            GY4aMc/sVAowdcrFr2AvjkFCXLqmJwzPmvc3pm9/0EvOQwA2ouCObokCIWpeo2Jx
            Z4RXutUBZtCPMIg9V3n+tEUK
            -----END PRIVATE KEY-----

            """,
            """
            -----BEGIN PUBLIC KEY-----
            MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEApYiWUnyN8q3JCttXDahO
            tUATjVEJSkzXR0QJgzKBolwn7M34pDLpaLSS9nru7rsMM9L6E3b1vDFg+m4/UvFf
            6G4unh6/sb8wek49c3FjyeZ5VqxBHH+FK3vybE3afnnURnRePwxWsYIUVR4o+yMx
            KfY/fT1fHtLfjsU1ktrosbotLdgXQBQRRgvL2VQ5tEJDbTrCauelVDdbghsf6ncW
            tzK+3y+xOcxRALtXuylERppq1gjBHQ9MwMU7JuB8L0GlhuTcIpAlWKCNtz9cM3LB
            RXPDfz8xoG1Dtba2vLDfYLeNr8Bl3eFXMDJ41RKZTNMXNaRaQ0SEMOB2xlc0yGSm
            pwIDAQAB
            -----END PUBLIC KEY-----

            """
        ),
    ]
}
