"""What sixteen more blind sets showed (docs/redaction.md, twelfth pass): one tool's syntax each
(servers.py, shells.py, code_literals.py, security_tools.py, desktops.py), listings' line numbers,
S3-compatible keys under AWS's names, typed passphrases under a secret's or a token's name. Values
here are typed or generated for the test."""

from __future__ import annotations

import base64

import pytest

from pica.stages.secrets import find_secrets, redact

HEX32 = "5a7c27abe69d81face076689721a61d5"
B64_32 = "IggXgjZLpZ6g9aGENzCGDr55U2ZFyVgJisYoOLSCmAI="
AZURE_KEY = base64.b64encode(bytes((i * 37 + 11) % 256 for i in range(64))).decode()  # 88 characters
K3S = "K10" + "3f9c2a7d1e8b4c6f" * 4 + "::server:" + "9e2b7c1f4a8d3e6b9c0f3f9c2a7d1e8b"


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        # databases' own login syntax
        ("db2 connect to SAMPLE user db2admin using Cider!Press!23\n", "Cider!Press!23"),
        ("bteq <<EOF\n.LOGON tdprod/etl_batch,Bison!Plains!48;\n", "Bison!Plains!48"),
        ("$ isql -v ORA_FIN fin_ro Crimson.Leaf.2018\n", "Crimson.Leaf.2018"),
        ("$ mysqlsh --uri clusteradmin:Cl0udyMorn1ng@mysql-node1:3306\n", "Cl0udyMorn1ng"),
        ("grafana-cli admin reset-admin-password 'grafanaOps!2291x'\n", "grafanaOps!2291x"),
        ("sentinel auth-pass mymaster Drifting#Kelp#45\n", "Drifting#Kelp#45"),
        ('<void property="password">\n  <string>Tq7!verMoss</string>\n', "Tq7!verMoss"),
        ("      *:*:*:barman:W4lnut_Grove_88\n", "W4lnut_Grove_88"),
        # orchestrators' printed tokens and keys
        (f"K3S_URL=https://10.0.0.5:6443 K3S_TOKEN={K3S} sh -\n", K3S[-32:]),
        (
            "Accessor ID  = aa982840-ca94-46c8-b174-7710ca7c7190\nSecret ID    = 108401c7-38fc-47f6-a8ad-44d5a878ff8f\n",
            "108401c7-38fc-47f6-a8ad-44d5a878ff8f",
        ),
        (
            "Key                  Value\n---                  -----\ntoken                s.SkCEupNJiYHFPPWv6Zd4JUDa\n"
            "token_duration       720h\n",
            "s.SkCEupNJiYHFPPWv6Zd4JUDa",
        ),
        (
            "$ vault operator unseal JEyuViDJFMLAWgUILhePTXb+y71CYnQ7uMJBUdDNDUwO\n",
            "JEyuViDJFMLAWgUILhePTXb+y71CYnQ7uMJBUdDNDUwO",
        ),
        (f'{{"datacenter": "eu", "encrypt": "{B64_32}"}}', B64_32),
        (f"$ consul keygen\n{B64_32}\n", B64_32),
        (
            ">>> get_random_secret_key()\n'9vtnpx7))c0f62g5+oo=-+$ib269-u0chr)=j=j!zvj@ww==ni'\n",
            "9vtnpx7))c0f62g5+oo=-+$ib269-u0chr)=j=j!zvj@ww==ni",
        ),
        (
            'PS C:\\src> pulumi config set cloudflare:apiToken "UHX9pkmN-iE18de6zlZ68DolWIt7Y1NO" --stack prod\n',
            "UHX9pkmN-iE18de6zlZ68DolWIt7Y1NO",
        ),
        (
            "# pulumi config --show-secrets\nKEY                    VALUE\napp:dbPassword         mossyStone_51!\n",
            "mossyStone_51!",
        ),
        ('{"ParameterKey": "GrafanaAdminPassword", "ParameterValue": "Glacier#Fjord88"}', "Glacier#Fjord88"),
        ('SecretValue.unsafe_plain_text("Juniper.Crane.77")', "Juniper.Crane.77"),
        ('"adminPassword": { "value": "Olive&Tower91!" }', "Olive&Tower91!"),
        (
            "aws ssm put-parameter \\\n  --name /app/SMTP_PASSWORD \\\n  --type SecureString \\\n"
            "  --value 'M1dnight-Ferry!' \\\n  --overwrite\n",
            "M1dnight-Ferry!",
        ),
        (
            "$ az cosmosdb keys list --name c --resource-group rg --query primaryMasterKey -o tsv\n"
            "R/W77a1lhBGm4ZYK2k3D/pTbyHHNUeGjU4Q6VguJDCGY0z2lp0XcKpQ2W7+CTKCn/5l7nsbLbKPsMwk8d60oZw==\n",
            "R/W77a1lhBGm4ZYK2k3D/pTbyHHNUeGjU4Q6VguJDCGY0z2lp0XcKpQ2W7+CTKCn/5l7nsbLbKPsMwk8d60oZw==",
        ),
        (
            "||  SecretAccessKey|  lQwIjmBwGzXov32ha1d7nGKNZ9qwyqnho/k69zk/   ||\n",
            "lQwIjmBwGzXov32ha1d7nGKNZ9qwyqnho/k69zk/",
        ),
        (
            "AWS Secret Access Key [None]: xytjl/bmCnmjFTWORWkrpFdjQ/VwNVwefsr/ytzL\n",
            "xytjl/bmCnmjFTWORWkrpFdjQ/VwNVwefsr/ytzL",
        ),
        # an access key's id, then its secret
        (
            'oss.New("https://oss-cn-hangzhou.aliyuncs.com", "LTAI5tsLK8uLxBmMtFFNB5Ml", "rgOwFCBoLZhDeoX6jjRsGPOWwgXmln")',
            "rgOwFCBoLZhDeoX6jjRsGPOWwgXmln",
        ),
        (
            'credentials.NewStaticV4("R1OXPC8AIHBX76IM87MF", "ryhzJKazW0ochZbTHc4FojFavWtF3T9TaHlZCzE4", "")',
            "ryhzJKazW0ochZbTHc4FojFavWtF3T9TaHlZCzE4",
        ),
        (
            "Access Key,Secret Key\nTLU8KPDQ2XDMTLY7NLR9,rtEq91vDbt76OZUDbar0HrfESbRXXTnewShI4tgC\n",
            "rtEq91vDbt76OZUDbar0HrfESbRXXTnewShI4tgC",
        ),
        (
            "aws_secret_access_key = +zGBXRGoKsJ3R36nIyvWTQ+Qb5IRhvOtRcFTHsw4zQI=\n",
            "+zGBXRGoKsJ3R36nIyvWTQ+Qb5IRhvOtRcFTHsw4zQI=",
        ),
        ("00573f9c84bbbe9000000004a K0045uSf6n3jAT5pIUTv8zpB5F6Kgsh\n", "K0045uSf6n3jAT5pIUTv8zpB5F6Kgsh"),
        (
            "const resend = new Resend('re_FpjtyHVx_YoWXQseHhmLnaNLIcwQf8AFF');",
            "re_FpjtyHVx_YoWXQseHhmLnaNLIcwQf8AFF",
        ),
        ("cargo login cio6poridfWQVtVpqKJkFoguaVlfhWkgBmj\n", "cio6poridfWQVtVpqKJkFoguaVlfhWkgBmj"),
        (
            "      WORDPRESS_NONCE_KEY: 'z.kO]=v&Iih2,Vu<S?vE/!x9#Lm2@Pq8*Rt5^Wy7(Zb3)Kd'\n",
            "z.kO]=v&Iih2,Vu<S?vE/!x9#Lm2@Pq8*Rt5^Wy7(Zb3)Kd",
        ),
        (
            "APP_KEY=base64:UYlOwM2+K9IF+WwN8s5knlv34VSMoRH6gmZrJ5uyFzM=\n",
            "base64:UYlOwM2+K9IF+WwN8s5knlv34VSMoRH6gmZrJ5uyFzM=",
        ),
        (f"api_hash = '{HEX32}'\n", HEX32),
        # chat and mail servers
        ("https://chat.greenfield.coop/hooks/ddztio3ld2m9vrtj6314hyutpk\n", "ddztio3ld2m9vrtj6314hyutpk"),
        ("LoadModule = nickserv Kraken_Tide_3673\n", "Kraken_Tide_3673"),
        ("<Network corpirc>\n    Server = irc.internal.acme.com +6697 Mo5Coclj3HXAnT\n", "Mo5Coclj3HXAnT"),
        ("PASS nils/efnet:Orchid%Lake96\nNICK nils\n", "Orchid%Lake96"),
        ("register => 4420013:SihbOOC6z4FV@sip.voipgate.nl/4420013\n", "SihbOOC6z4FV"),
        (
            "# sasl_passwd\nsmtp.fastmail.com:465   backups@dunmore.family:Bison&Creek2251\n",
            "Bison&Creek2251",
        ),
        ("[relay.brevo.com]:587 ops@seabright.tv:7FX02PT0BFo7vQWENGFa2TQG\n", "7FX02PT0BFo7vQWENGFa2TQG"),
        ('  pass "bRKebWJq1YowNd"\n', "bRKebWJq1YowNd"),
        ("Pass 16egzvxhq7dcnans\nSSLType IMAPS\n", "16egzvxhq7dcnans"),
        ("outbound_auth/password=Saffron!Dock813\n", "Saffron!Dock813"),
        # shells
        ("echo 'Larkspur#2Fox' | sudo -S apt-get update\n", "Larkspur#2Fox"),
        ("sudo -S <<< 'Cinder&Smoke_71' docker ps\n", "Cinder&Smoke_71"),
        ("echo 'Hollyhock!Bend27' | gpg --batch --passphrase-fd 0 --decrypt s.gpg\n", "Hollyhock!Bend27"),
        (
            "echo 'Glacier-Moraine-Echo-44' > /tmp/.vp && ansible-vault decrypt v.yml --vault-password-file /tmp/.vp\n",
            "Glacier-Moraine-Echo-44",
        ),
        ("set -gx BORG_PASSPHRASE 'Ember.Kiln.Smith.9'\n", "Ember.Kiln.Smith.9"),
        (
            "sudo useradd -m -p \"$(openssl passwd -6 'Lantern.Festival.2025')\" intern01\n",
            "Lantern.Festival.2025",
        ),
        ("unzip -P Xk4bQ9wR2mTn customer_export.zip -d export/\n", "Xk4bQ9wR2mTn"),
        ("  503  mysqldump -uroot -pR3dW1ne-Cellar --single-transaction app > app.sql\n", "R3dW1ne-Cellar"),
        # listings' line numbers, an agent's output marks
        ("     1037:requirepass T3mp3st#Orion\n", "T3mp3st#Orion"),
        ("x\n.env:12:DB_PASSWORD=Xk29fLq8Rz3MvT7w\n", "Xk29fLq8Rz3MvT7w"),
        (
            "• Ran kubectl get secret db -o jsonpath='{.data.password}' | base64 -d\n  └ Quartz!Meadow22",
            "Quartz!Meadow22",
        ),
        # typed passphrases under a secret's, a token's or a password's name
        ("[fop2]\nsecret = Bramble-Heron-150\n", "Bramble-Heron-150"),
        ('    token   = "otter-Basin-5561"\n', "otter-Basin-5561"),
        ('ssh_password = "ssh-Build-Pass-451"\n', "ssh-Build-Pass-451"),
        ("pass_phrase=Sequoia-Ridge-7741\n", "Sequoia-Ridge-7741"),
        ("ansible_ssh_pass: Tamarind$Ledge4\n", "Tamarind$Ledge4"),
        ('          password: "dATGXndQoqNKOrB(ySnP"\n', "dATGXndQoqNKOrB(ySnP"),
        ("MJ_APIKEY_PRIVATE=705a13d876579b0cdcdf581805c53663\n", "705a13d876579b0cdcdf581805c53663"),
        # other languages' words
        ("Clé de sécurité : Bouchon-Lyonnais-69\n", "Bouchon-Lyonnais-69"),
        ("clave: Cordillera.2024\n", "Cordillera.2024"),
        ("Palavra-passe inicial: Tejo.Azul.8820\n", "Tejo.Azul.8820"),
        ("Initialpasswort: Start!Herbst2024\n", "Start!Herbst2024"),
        ("チャネルシークレット：2a6eaa77a6b82203f91c9b0f396726c9\n", "2a6eaa77a6b82203f91c9b0f396726c9"),
        ("授权码：xqbmfkzrwlpdheja（不是登录密码！）\n", "xqbmfkzrwlpdheja"),
        ("contraseña de aplicación: xgmc qlti hwzh hhld\n", "xgmc qlti hwzh hhld"),
    ],
)
def test_a_tools_credential_is_redacted(text, secret):
    assert secret not in redact(text)


def test_a_kubernetes_secrets_data_is_judged_decoded():
    url = base64.b64encode(b"postgres://metabase:Cardinal-Wharf-61@pg.data.svc:5432/metabase").decode()
    user = base64.b64encode(b"admin").decode()
    manifest = f"kind: Secret\napiVersion: v1\ndata:\n  MB_DB_CONNECTION_URI: {url}\n  username: {user}\n"
    assert url not in redact(manifest) and user in redact(manifest)


@pytest.mark.parametrize(
    "text",
    [
        'sql_password: "@SQL_PASSWORD@"\n',  # autoconf's placeholder
        "KAKAO_ADMIN_KEY=여기에_어드민_키_입력\n",  # "enter the admin key here"
        'req.Header.Set("Authorization", "Bearer not-a-real-token")\n',
        "      env:\n        - name: AWS_SHARED_CREDENTIALS_FILE\n          value: /credentials/cloud\n",
        '$ beeline -u "jdbc:hive2://hive.corp.local:10000/default;principal=hive/_HOST@CORP.LOCAL"\n',
        "    dbt: move redshift password to env_var, rotate dbt_prod credentials\n",
        "    sqlplus username/password@[//]host[:port][/service_name]\n",
        "NEXTAUTH_SECRET=<generate with: openssl rand -base64 32>\nGITHUB_ID=<your-github-oauth-app-id>\n",
        "$ age-keygen -y ~/.config/sops/age/keys.txt\nage1u0krjfvf4eelgx3patq5jn4g7ewyq6aurd7s409u7wy5de3ymh2639smvm\n",
        "Name             Type        Global  Accessor ID                           Expired\n"
        "Bootstrap Token  management  true    28cb5d5a-24be-413a-bee7-2e730e59e705  false\n",
        'aws ssm put-parameter --name "MyParameter" --type "String" --value "Vici" --overwrite\n',
        "secretName: App-Tls-2024\nsecret: mysql-secret-01\n",  # resources' names
        "    pass through\n",
        'url = "http://User:Pass@www.python.org:080/"\n',  # a capitalised word alone stands in
        'pw = getpass.getpass(f"Password for REPORTING@RPTPDB: ")\n',
    ],
)
def test_what_the_forty_third_to_fiftieth_sets_showed_redacted_wrongly_is_left_alone(text):
    assert find_secrets(text) == []


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        # registries and build tools
        ("$ echo -n 'deploy:Blue#Falcon2024' | base64\n", "Blue#Falcon2024"),
        (
            '    npmAuthIdent: "YndheW5lLWNpOkdvdGhhbS5OaWdodHMuMTkzOQ=="\n',
            "YndheW5lLWNpOkdvdGhhbS5OaWdodHMuMTkzOQ==",
        ),
        (
            "composer config http-basic.nova.laravel.com taylor@studio.dev mR2fIBae5R8JZbGl1E1vg7CO24MjgJ\n",
            "mR2fIBae5R8JZbGl1E1vg7CO24MjgJ",
        ),
        (
            '{"gitlab-oauth": {"gitlab.com": "7044183b0867ff233f9c987d05f3aa04e72038d2"}}',
            "7044183b0867ff233f9c987d05f3aa04e72038d2",
        ),
        (
            "dotnet nuget push a.nupkg -s https://nexus.local/nuget/ -k 90d1d8d8-4a8a-4d02-93d5-a070b1a148a9\n",
            "90d1d8d8-4a8a-4d02-93d5-a070b1a148a9",
        ),
        ('BUNDLE_GEM__FURY__IO: "RvW4WMXtmzRUthlpcGc1"\n', "RvW4WMXtmzRUthlpcGc1"),
        ("skopeo copy --dest-creds builder:Lemonade.Stand-74 docker://a docker://b\n", "Lemonade.Stand-74"),
        (
            "conda config --set channel_alias https://conda.anaconda.org/t/yh-11ecac4e-d30d-44b1-872a-f30c99a45a76\n",
            "yh-11ecac4e-d30d-44b1-872a-f30c99a45a76",
        ),
        (
            "!ngrok config add-authtoken 2KB5dJ5mu7CHDMLFLcOWWZwyWVM_CAtRjJNUWe098b5KE79uY\n",
            "2KB5dJ5mu7CHDMLFLcOWWZwyWVM_CAtRjJNUWe098b5KE79uY",
        ),
        # data platforms
        ('w.secrets.put_secret(scope="s3", key="pg", string_value="tr0ut-Lake!Vx82")', "tr0ut-Lake!Vx82"),
        (
            'CREATE WIDGET TEXT mistral_key DEFAULT "kawTyr902tYIa6NWraFXEnufOzDhq0BI";',
            "kawTyr902tYIa6NWraFXEnufOzDhq0BI",
        ),
        (
            f'spark.conf.set(\n    "fs.azure.account.key.lake01.dfs.core.windows.net",\n    "{AZURE_KEY}")',
            AZURE_KEY,
        ),
        # code: JWT keys beside their algorithm, keys decoded from literals, user:password handed whole
        (
            "JWT::encode($claims, 'BOznThANg/ZY28ap=IGGZYFMFhAk6PgwbFMOAvPgmafp', 'HS256');",
            "BOznThANg/ZY28ap=IGGZYFMFhAk6PgwbFMOAvPgmafp",
        ),
        ('Algorithm.HMAC256("_#l-Ncsyg*NpoP--gBDYz8eMK1a3Tn2Qj^zK")', "_#l-Ncsyg*NpoP--gBDYz8eMK1a3Tn2Qj^zK"),
        (
            'var piiKey, _ = hex.DecodeString("2f5752f28c657da337fca39b055218b2d6f9c3dfb114a13992bf74bba264d4ec")',
            "2f5752f28c657da337fca39b055218b2d6f9c3dfb114a13992bf74bba264d4ec",
        ),
        ('curl_easy_setopt(h, CURLOPT_USERPWD, "prometheus:Sn0wy#Owl-Pass");', "Sn0wy#Owl-Pass"),
        (
            'd := gomail.NewDialer("smtp.office365.com", 587, "alerts@acme.com", "P1neCone*Harbor")',
            "P1neCone*Harbor",
        ),
        ("$smtp->auth('nagios', 'Falcon9_Launch!');", "Falcon9_Launch!"),
        (
            'l.simple_bind_s("cn=webapp,ou=apps,dc=cedar,dc=edu", "Cedar-Webapp-Bind22")',
            "Cedar-Webapp-Bind22",
        ),
        (
            'const client = twilio("SK42131a4910e82161c75ec6418ca6aa67", "rxQ2T7icaJhGf3wdafvIFqOWz79zd5nr");',
            "rxQ2T7icaJhGf3wdafvIFqOWz79zd5nr",
        ),
        # identity: keytabs, JWKs, ktutil, a secret file printed
        (
            "KRB5_KEYTAB_B64=BQIAAABPAAEADUNPUlAuQklSQ0guSU8AC3N2Yy1qZW5raW5zAAAAAWUM7RUCABIAILSSYe0j4FxC8QqQ\n",
            "BQIAAABPAAEADUNPUlAuQklSQ0guSU8AC3N2Yy1qZW5raW5zAAAAAWUM7RUCABIAILSSYe0j4FxC8QqQ",
        ),
        (
            '{"kty": "oct", "kid": "s1", "alg": "HS256", "k": "F9l6o-CQwOkpXICEmpeHOADL8hK-IeDtFu6MQhAvqH4"}',
            "F9l6o-CQwOkpXICEmpeHOADL8hK-IeDtFu6MQhAvqH4",
        ),
        (
            "ktutil <<EOF\naddent -password -p svc@CORP.COM -k 1 -e aes256-cts\nPal1sade-Airflow#K5\n",
            "Pal1sade-Airflow#K5",
        ),
        ("$ sudo cat /etc/ldap.secret\nSunflower-Root-88\n", "Sunflower-Root-88"),
        ('token = "UBIQiTEUeYsxqOonOKEVCdhIBGvZOSju"\n', "UBIQiTEUeYsxqOonOKEVCdhIBGvZOSju"),
        (
            'export OKTA_OAUTH2_CLIENT_SECRET="irZu-8Licl7u38rYn9iwzFdozV-m4XFO3lRPEOO"\n',
            "irZu-8Licl7u38rYn9iwzFdozV-m4XFO3lRPEOO",
        ),
        # desktops
        (
            "security add-generic-password -U -a \"$USER\" -s jira -w 'Sprint!Retro-Board9'\n",
            "Sprint!Retro-Board9",
        ),
        (
            "nmcli connection add type wifi ssid Lab wifi-sec.psk 'Oscilloscope&Probe9'\n",
            "Oscilloscope&Probe9",
        ),
        ('> set_network 1 psk "BlueCanoe_1987"\n', "BlueCanoe_1987"),
        ("    DefaultPassword    REG_SZ    Winter!Lobby-2291\n", "Winter!Lobby-2291"),
        (
            'defaults write com.jamf.connect.login OIDCROPCPassword -string "Enroll#Mac-Fleet-22"',
            "Enroll#Mac-Fleet-22",
        ),
        ("$ secret-tool lookup service nextcloud user anna\nFjord-Sild-9921\n", "Fjord-Sild-9921"),
        ("$sec = 'Hyper-V_Lab!2024' | ConvertTo-SecureString -AsPlainText -Force\n", "Hyper-V_Lab!2024"),
        # security tools' findings
        (
            "| ftp-brute:\n|   Accounts:\n|     backup:OtterWinter2023# - Valid credentials\n",
            "OtterWinter2023#",
        ),
        ("10.50.0.182 21/tcp ftp: 'scanner' 'Sparrow_Hickory$2'\n", "Sparrow_Hickory$2"),
        ("[+] 10.0.8.48:22 - Success: 'ops:gingeratlas509' 'uid=1001(ops)'\n", "gingeratlas509"),
        (
            "LDAP        10.2.0.98     389    DC02             [+] corp.local\\svc_ldapsync:Canyon8Pickle1?\n",
            "Canyon8Pickle1?",
        ),
        ("[*] DefaultPassword \nCORP\\frontdesk:Brisket.Saturn!6\n[*] Cleaning up...\n", "Brisket.Saturn!6"),
        (
            "$ hashcat -m 0 --show leaked_md5.txt\n55ec8a752859609362ec81cfee3c35fc:Thunder-Coffee-6740\n",
            "Thunder-Coffee-6740",
        ),
        ("Passwords : {Mustang-Pelican-4268}\n", "Mustang-Pelican-4268"),
        ("SMB         10.0.40.36   445    APP03            CORP\\svc_iis:B4ckup#HQ72\n", "B4ckup#HQ72"),
        (
            "$ hashcat -m 22000 capture.hc22000 --show\n"
            "f85f8ab9fedaee3641d515d78a98c015:239c5046aa31:a96430a7ac59:Globex-Guest:Phoenix1Maple9$\n",
            "Phoenix1Maple9$",
        ),
        (
            "$ john --format=krb5tgs tgs.hash\nLoaded 1 password hash (krb5tgs)\nSup3rS3cret!2024     (svc_mssql)\n",
            "Sup3rS3cret!2024",
        ),
        ("Cleartext|10.0.77.194|mfp-3rdfloor|Biscuit7Denver5?\n", "Biscuit7Denver5?"),
        (
            "addcomputer.py -computer-name 'RBCD01$' -computer-pass 'Nuggetorc91$' -dc-host dc01\n",
            "Nuggetorc91$",
        ),
        ("Secret  : DefaultPassword\ncur/text: Winter!Lobby-2291\n", "Winter!Lobby-2291"),
        (
            "+----+----------+---------------+\n| id | username | cleartext     |\n+----+----------+---------------+\n"
            "| 1  | admin    | Ranger#Fold44 |\n+----+----------+---------------+\n",
            "Ranger#Fold44",
        ),
        ("login_user=root\nlogin_passw=Mangopai31$\n", "Mangopai31$"),
        # enterprise integrations and home labs
        (
            "ISA*00*          *01*R7tq2Wz9MX*ZZ*MERIDIANFOODS  *ZZ*KROGER         *240402*1130*U*00401*0*P*>~",
            "R7tq2Wz9MX",
        ),
        ("ftp -inv edi.example.com <<END\nuser ACMEVAN01 Oxbow#Canal44\nbinary\n", "Oxbow#Canal44"),
        (
            "FNDCPASS apps/Sapphire_Mesa77 0 Y system/$SYSTEM_PW SYSTEM APPLSYS $NEW_APPS_PW\n",
            "Sapphire_Mesa77",
        ),
        ("  ALTUSER EDIBAT PASSWORD(NXM3Q8RT) NOEXPIRED\n", "NXM3Q8RT"),
        (
            "pmrep connect -r REP_PROD -d Domain_INFAPRD -n repo_deployer -x 'Larkspur-Quay-61'\n",
            "Larkspur-Quay-61",
        ),
        (
            "$ anypoint-cli-v4 conf client_secret 6DE9EA63D97D7F88A47CD2A5CA06CEA9\n",
            "6DE9EA63D97D7F88A47CD2A5CA06CEA9",
        ),
        ("mvn clean deploy -DmuleDeploy -Dmule.env=prod -Dmule.key=NvbOo85Km0RQPDRa\n", "NvbOo85Km0RQPDRa"),
        ("keystore.ssl.password=Seagull!Pier_907\n", "Seagull!Pier_907"),
        ("  --user 'rest.integration':'Thimble*Copper_87' \\\n", "Thimble*Copper_87"),
        ("  -e PLEX_CLAIM=claim-AbhZxH8zrh3GKijeDA3L \\\n", "claim-AbhZxH8zrh3GKijeDA3L"),
        (
            "root@pam!backup-script 67bcc0c4-5255-4102-b48e-b18a45e39665\n",
            "67bcc0c4-5255-4102-b48e-b18a45e39665",
        ),
        (
            "$ immich login https://photos.example.se/api 0g00sBAcTnGsbiWFnSTHbpCe0IZbZ7GhhI6undaebCI\n",
            "0g00sBAcTnGsbiWFnSTHbpCe0IZbZ7GhhI6undaebCI",
        ),
        (
            "$ headscale preauthkeys create --user homelab --reusable\ne56b22049b750edca0628dc2d8c0cf755e2c74faa87eb57a\n",
            "e56b22049b750edca0628dc2d8c0cf755e2c74faa87eb57a",
        ),
        # human writing
        ("the token for staging is Zq8k3LmV9xR2pT7wYc4N\n", "Zq8k3LmV9xR2pT7wYc4N"),
        (
            "Okta app for Grafana SSO: client id 0oab7hJKAdhpbioXo7ix, secret qxgP1FsgZQsGvBXMnZt-P4xj40-8XKwjkMnFSORb",
            "qxgP1FsgZQsGvBXMnZt-P4xj40-8XKwjkMnFSORb",
        ),
        ("- console is https://10.9.0.43, ADMIN / Ipmi$Lighthouse5\n", "Ipmi$Lighthouse5"),
        (
            "@channel the QA database password got reset. new one for the `qa_admin` role is\n\nPelican$Harbor2024\n",
            "Pelican$Harbor2024",
        ),
    ],
)
def test_what_the_fifty_first_to_fifty_eighth_sets_showed_is_redacted(text, secret):
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "# so that they will pass tests like:\n",  # four short words are no app password
        "    near0 = 1.0 / 10**precision\n",  # a division, not `user / password`
        "    # Whether to upcast float16 / bfloat16 to float32 in triton\n",  # prose pairs names too
        "# PP-DocLayoutV4 does not produce these RT-DETR / PP-DocLayoutV3 outputs\n",
        "terminate_key = 'terminateBlueInstancesOnDeploymentSuccess'\n",  # camelCase words
        "    value1 = values[0]  # retrieves the data for key torchelastic/data0\n",  # a path
        "# RFC 2822 ftext is %d33-57 / %d59-126, Any character\n",
        "aws waf update-rule \\\n  --change-token 12cs345-67cd-890b-1cd2-c3a4567d89f1 \\\n",  # an option's value
        "nxc smb 10.0.5.0/24 -u users.txt -p passwords.txt --continue-on-success\n",  # a spray's list
        '$ echo -n "$NEW_TOKEN" | docker secret create grafana_cloud_token -\nzb3k9xq2m7w1v4t8c6y5n0p2r\n',
        "Signature: verified with key ef3hB-mtMwPFBnYJbfpIND from jwks.json\n",
        '"auth": {"client_token": "hmac-sha256:08e504ae39c5a4cae464927770f9ee7e447df7e11b699cc431975772ef54b3f6"}',
        'cookie_secret = "REPLACE_WITH_OUTPUT_OF_openssl_rand_-base64_32"\n',
        "ALTER ROLE r WITH LOGIN PASSWORD 'SCRAM-SHA-256$4096:K/oI8ST7kRd3HmIPOEP9mQ==$Lo9MALTiVvDoCHk=:z+mG=';",
        '{"results": {"a.py": [{"type": "Secret Keyword", "hashed_secret": "15d5ae34d2ab947efa0495c398344aadacb37d0e"}]}}',
        "username=§user§&password=§pass§\n",
        'exec_command {"cmd":"cat package.json","max_output_tokens":18000}\n{"timestamp":"2026-05-11T08:43:23.174Z"}\n',
        '$ secret-tool lookup service nextcloud; echo "exit=$?"\nexit=1\n',
    ],
)
def test_what_the_fifty_first_to_fifty_eighth_sets_and_real_code_showed_is_left_alone(text):
    assert find_secrets(text) == []
